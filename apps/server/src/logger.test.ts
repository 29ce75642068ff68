import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.js';

describe('redactUrl', () => {
  it('hides signed tokens and e-mailed keys, and keeps the rest', () => {
    expect(redactUrl('/api/projects/p/subjects/s/videos/v/stream/?token=abc.def&x=1')).toBe(
      '/api/projects/p/subjects/s/videos/v/stream/?token=[redacted]&x=1',
    );
    expect(redactUrl('/api/files/eyJhbGciOi.x.y')).toBe('/api/files/[redacted]');
    expect(redactUrl('/auth/confirm-verification/secret-key')).toBe('/auth/confirm-verification/[redacted]');
    expect(redactUrl('/auth/confirm-password-reset/MQ/tok-en')).toBe('/auth/confirm-password-reset/[redacted]');
    expect(redactUrl('/api/projects/?page=2&search=M1')).toBe('/api/projects/?page=2&search=M1');
  });
});
