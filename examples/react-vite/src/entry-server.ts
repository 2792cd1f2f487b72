// The server's half of the app, built by `vite build` into dist/server/ (the views are TSX, which
// Node does not run): the route table and the site's origin. server.mjs imports the built file.
export { routes } from './routes';
export { ORIGIN } from './site';
