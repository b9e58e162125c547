import { render } from 'preact';
import { App } from './app.js';
import { SetupPage } from './pages/setup.js';
import { routeOf } from './router.js';

// The setup page (a new gateway's first account) stands alone: it talks to two REST endpoints, and
// leaves by loading the page again, signed in.
const route = routeOf(location.hash);
render(route.page === 'setup' ? <SetupPage token={route.token} /> : <App />, document.getElementById('app')!);
