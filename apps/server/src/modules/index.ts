import type { FastifyInstance } from 'fastify';
import fileRoutes from './files/file.routes.js';
import healthRoutes from './health/health.routes.js';

/** Every feature's routes, mounted under /api. */
export const apiModules: ((app: FastifyInstance) => Promise<void>)[] = [healthRoutes, fileRoutes];
