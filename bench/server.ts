export {
  startServerProcess as startServer,
  stopServerProcess as stopServer,
} from '../apps/api/src/test/server-process.ts';
