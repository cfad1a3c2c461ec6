function freeze(obj) {
  return Object.freeze({ ...obj });
}

export default {
  values() {
    return freeze({ port: 8080, host: '127.0.0.1', verbose: false });
  },

  describe(key) {
    return `${key} (default: ${this.values()[key]})`;
  },
};
