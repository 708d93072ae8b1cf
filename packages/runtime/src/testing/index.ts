export { describeEventLogContract } from './event-log-contract.js';
