/** Reported by /api/health/ and the OpenAPI document; bump with releases. */
export const APP_VERSION = '0.1.0';
