import { slugify, truncate } from './lib/strings.mjs';
import { formatDate as fmt, monthName } from './lib/dates.mjs';

function buildPost(title, body, date) {
  return {
    slug: `${fmt(date)}-${slugify(title)}`,
    excerpt: truncate(body, 40),
    month: monthName(date),
  };
}

const post = buildPost(
  'Héllo Wörld: ESM edition',
  'Named exports are the bread and butter of modern JavaScript modules.',
  new Date(Date.UTC(2024, 2, 5)),
);
console.log(JSON.stringify(post, null, 2));
