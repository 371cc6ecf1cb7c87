// The worker pool's task module when the server runs from its TypeScript sources (Vitest,
// `npm run dev`): Node 20 gives a worker thread none of the main thread's module hooks, so the
// thread registers tsx's loader itself before loading worker-tasks.ts. The compiled server (dist)
// loads worker-tasks.js directly and never reads this file.
import { register } from 'tsx/esm/api';

register();
const { default: runTask } = await import('../worker-tasks.ts');
export default runTask;
