import { capitalize } from './strings.mjs';

const MONTHS = [
  'january', 'february', 'march', 'april', 'may', 'june',
  'july', 'august', 'september', 'october', 'november', 'december',
];

function pad(n) {
  return String(n).padStart(2, '0');
}

export function formatDate(date) {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

export const monthName = (date) => capitalize(MONTHS[date.getUTCMonth()]);
