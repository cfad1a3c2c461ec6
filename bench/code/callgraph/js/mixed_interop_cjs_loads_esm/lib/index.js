'use strict';

module.exports = {
  ...require('./toc'),
  slug: require('./slug').default,
};
