import type { Tool } from './define-tool.js';
import { demoTools } from './demo-tools.js';

/** The built-in toolsets by name, as `--tools` and the construct's `builtInTools` name them. */
export const BUILT_IN_TOOLSETS: Readonly<Record<string, readonly Tool[]>> = { demo: demoTools };

/** The tools of the named built-in toolsets; an unknown name is an error that lists the known ones. */
export function builtInTools(names: readonly string[]): Tool[] {
  return names.flatMap((name) => {
    const tools = BUILT_IN_TOOLSETS[name];
    if (tools === undefined) {
      throw new Error(
        `Unknown toolset "${name}". Built-in toolsets: ${Object.keys(BUILT_IN_TOOLSETS).join(', ')}.`,
      );
    }
    return tools;
  });
}
