/** A few of the passwords tried first by anyone guessing; a longer list would belong in a data file. */
const COMMON = new Set([
  'password',
  'password1',
  'password123',
  'passw0rd',
  'qwertyui',
  'qwerty123',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'letmein1',
  'abcdefgh',
  'abcd1234',
  'trustno1',
  'superman',
  'starwars',
  'whatever',
  'changeme',
]);

export const MIN_PASSWORD_LENGTH = 8;

/** What is wrong with a new password (empty when it is acceptable), in words a form can show. */
export function passwordProblems(password: string, email: string): string[] {
  const problems: string[] = [];
  if (password.length < MIN_PASSWORD_LENGTH) {
    problems.push(`This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (/^\d+$/.test(password)) problems.push('This password is entirely numeric.');
  const lowered = password.trim().toLowerCase();
  const address = email.trim().toLowerCase();
  const localPart = address.split('@')[0] ?? '';
  if (lowered === address || (localPart.length >= 3 && lowered === localPart)) {
    problems.push('This password is too similar to the e-mail address.');
  }
  if (COMMON.has(lowered)) problems.push('This password is too common.');
  return problems;
}
