export {
  type DynamoDbLocal,
  type DynamoDbLocalOptions,
  JavaMissingError,
  startDynamoDbLocal,
} from './start-dynamo-db-local.js';
