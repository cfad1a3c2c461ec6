import Transform from './transform.mjs';

export class Collect extends Transform {
  constructor() {
    super('collect');
    this.items = [];
  }

  write(chunk) {
    this.items.push(chunk);
    return super.write(chunk);
  }

  stats() {
    return `${super.stats()} (${this.items.length} kept)`;
  }
}
