import qs from './qs.cjs';

export function pageLinks(base, params, total) {
  const size = Number(params.size);
  const last = Math.max(1, Math.ceil(total / size));
  const current = Math.min(Number(params.page), last);
  return {
    current,
    last,
    prev: current > 1 ? `${base}?${qs.stringify({ ...params, page: current - 1 })}` : null,
    next: current < last ? `${base}?${qs.stringify({ ...params, page: current + 1 })}` : null,
  };
}
