// Lambda adapters, apart from the core so that importing the runtime does not load middy or Powertools.

export { type LambdaToolSpec, lambdaTool, lambdaToolSpecSchema } from './lambda/lambda-tool.js';
export { type HandlerDeps, type StepHandler, stepHandler } from './lambda/step-handler.js';
