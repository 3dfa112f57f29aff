// Every task queue name in one place.
export const TASK_QUEUES = {
  /** Business workflows and their activities. */
  main: 'stablepay-main',
} as const;
