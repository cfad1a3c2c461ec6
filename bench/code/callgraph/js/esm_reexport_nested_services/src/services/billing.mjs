import { hashId } from '../util/ids.mjs';

const TAX = 0.2;

export function priceWithTax(amount) {
  return round(amount * (1 + TAX));
}

export function round(n) {
  return Math.round(n * 100) / 100;
}

export function invoice(userId, items) {
  const total = items.reduce((sum, item) => sum + priceWithTax(item.price), 0);
  return { id: hashId(`${userId}:${total}`), userId, total: round(total) };
}
