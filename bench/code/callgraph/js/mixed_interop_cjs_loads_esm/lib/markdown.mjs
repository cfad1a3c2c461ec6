export function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderInline(text) {
  return escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/`(.+?)`/g, '<code>$1</code>');
}

export default function render(md) {
  return md
    .split(/\n{2,}/)
    .map((block) =>
      block.startsWith('# ')
        ? `<h1>${renderInline(block.slice(2))}</h1>`
        : `<p>${renderInline(block)}</p>`,
    )
    .join('\n');
}
