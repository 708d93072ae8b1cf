/** A module whose default export is not an agent: loading it as one must say why. */
export default { name: 'not an agent', tools: 'none' };
