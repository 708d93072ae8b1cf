/**
 * A module's default export as an agent file means it: `module.default`, or, for a CommonJS module
 * (an agent file outside a `"type": "module"` package, whose exports arrive as the default), the
 * default within. `undefined` when it exports none.
 */
export function moduleDefault(module: { default?: unknown }): unknown {
  const exported = module.default as { __esModule?: unknown; default?: unknown } | undefined;
  return typeof exported === 'object' && exported !== null && exported.__esModule === true
    ? exported.default
    : exported;
}
