export default class Transform {
  constructor(name) {
    this.name = name;
    this.next = null;
    this.seen = 0;
  }

  pipe(next) {
    this.next = next;
    return next;
  }

  write(chunk) {
    this.seen += 1;
    const out = this.transform(chunk);
    if (out !== undefined && this.next) this.next.write(out);
    return this;
  }

  transform(chunk) {
    return chunk;
  }

  stats() {
    return `${this.name}: ${this.seen}`;
  }
}
