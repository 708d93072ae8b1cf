// Lambda functions as tools, apart from the core so that importing the runtime does not load the Lambda client.
export { type LambdaToolSpec, lambdaTool, lambdaToolSpecSchema } from './lambda/lambda-tool.js';
