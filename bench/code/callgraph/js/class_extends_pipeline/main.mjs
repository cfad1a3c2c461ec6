import { Upper, Filter } from './lib/transforms.mjs';
import { Collect } from './lib/sink.mjs';

function buildPipeline() {
  const head = new Filter((s) => s.trim().length > 0);
  const sink = new Collect();
  head.pipe(new Upper()).pipe(sink);
  return { head, sink };
}

const { head, sink } = buildPipeline();
for (const line of ['alpha', '', 'beta', '  ', 'gamma']) head.write(line);
console.log(sink.items, head.stats(), sink.stats());
