'use strict';
import { x } from './x.js';

/**
 * Adds two numbers.
 * @param {number} a
 */
function add(a, b) {
  function nested() { return 1; }
  return a + b + nested();
}

// Arrow assigned to a const.
const mul = (a, b) => a * b;

let handler = async function named(ev) {
  return ev;
};

export function* gen() { yield 1; }

export default class Widget extends Base {
  static count = 0;
  onClick = (e) => { this.count++; };

  /** Renders it. */
  render() {
    return `<div>${this.count}</div>`;
  }

  get size() { return 1; }
}

export const Other = class {
  m() {}
};

module.exports.helper = function () { return 2; };

const a = 1, b = () => 2;
