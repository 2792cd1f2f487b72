// The browser: the router started, then its state drawn by React into the outlet, hydrating the
// page the server rendered (the server answers every visitor with one: `cleanUrls: 'all'`).
import { createRouter } from 'crawlable-router/client';
import { mount } from 'crawlable-router/react';
import { routes } from './routes';

const router = createRouter({ routes }); // no outlet: React draws
void mount(document.getElementById('app')!, { router, routes });
