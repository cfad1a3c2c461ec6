const SEP = '-';

function normalize(input) {
  return String(input).normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

export function slugify(input, sep = SEP) {
  return normalize(input)
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, sep)
    .replace(new RegExp(`^${sep}+|${sep}+$`, 'g'), '');
}

export const truncate = (text, max = 20, suffix = '...') => {
  const clean = normalize(text);
  if (clean.length <= max) return clean;
  return clean.slice(0, max - suffix.length) + suffix;
};

export const capitalize = function (word) {
  const s = normalize(word);
  return s.charAt(0).toUpperCase() + s.slice(1);
};
