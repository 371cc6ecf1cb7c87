// npm run build: always rebuild server and web client.
import { build } from './build-lib.mjs';
build();
