const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;

export function isString(value) {
  return typeof value === 'string';
}

export function isEmail(value) {
  return isString(value) && EMAIL_RE.test(value);
}

export const minLength = (n) => (value) => isString(value) && value.length >= n;

export function isPositiveInt(value) {
  return Number.isInteger(value) && value > 0;
}
