/** Lambda's own transient errors, as CDK's `retryOnServiceExceptions` lists them: a custom task retries on them. */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];
