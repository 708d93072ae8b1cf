import { describe, expect, it } from 'vitest';
import { corsOriginProblem } from './cors-origin-problem.js';

describe('corsOriginProblem', () => {
  it.each([
    'https://app.example.com',
    'http://localhost:5173',
    'http://127.0.0.1:8080',
    'https://[::1]:3000',
  ])('accepts %s', (origin) => expect(corsOriginProblem(origin)).toBeUndefined());

  it.each([
    ['*', 'list each origin (https://app.example.com): "*" is not allowed'],
    ['app.example.com', 'not a URL: give scheme://host[:port]'],
    ['ftp://app.example.com', 'the scheme must be http or https'],
    [
      'https://app.example.com/',
      'an origin is scheme://host[:port] only: did you mean https://app.example.com?',
    ],
    [
      'https://App.example.com',
      'an origin is scheme://host[:port] only: did you mean https://app.example.com?',
    ],
    [
      'https://app.example.com:443',
      'an origin is scheme://host[:port] only: did you mean https://app.example.com?',
    ],
    [
      'http://localhost:5173/chat',
      'an origin is scheme://host[:port] only: did you mean http://localhost:5173?',
    ],
  ])('refuses %s: %s', (origin, problem) => expect(corsOriginProblem(origin)).toBe(problem));
});
