export class ValidationError extends Error {
  constructor(field, message) {
    super(`${field}: ${message}`);
    this.name = 'ValidationError';
    this.field = field;
  }
}

export function fieldError(field, message) {
  return { field, message };
}

export function summarize(list) {
  return list.map((e) => `${e.field} ${e.message}`).join('; ');
}
