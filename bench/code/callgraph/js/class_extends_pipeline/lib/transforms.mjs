import Transform from './transform.mjs';

export class Upper extends Transform {
  constructor() {
    super('upper');
  }

  transform(chunk) {
    return chunk.toUpperCase();
  }
}

export class Filter extends Transform {
  constructor(predicate) {
    super('filter');
    this.predicate = predicate;
  }

  transform(chunk) {
    return this.predicate(chunk) ? super.transform(chunk) : undefined;
  }
}
