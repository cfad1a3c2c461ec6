"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.slugId = void 0;
exports.default = slug;
function slug(text) {
    return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
const slugId = (text, n) => `${slug(text)}-${n}`;
exports.slugId = slugId;
