'use strict';

const { buildToc, slug } = require('./lib');

async function renderPage(md) {
  const { default: render, escapeHtml } = await import('./lib/markdown.mjs');
  const toc = buildToc(md);
  return {
    title: escapeHtml(toc[0].title),
    anchor: slug(toc[0].title),
    toc,
    html: render(md),
  };
}

renderPage('# Hello **world** & <co>\n\nSome `code` here.\n\n# Second part').then((page) =>
  console.log(page),
);
