// The built-in toolsets by name, apart from the core as they include the http tool.
export { BUILT_IN_TOOLSETS, type BuiltInToolsConfig, builtInTools } from './tools/built-in-tools.js';
