import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';

// The app starts in stages, React's code first, the router's, then the app's (boot.tsx, which renders): each
// stage is compiled and run in a task of its own, not in one long task that keeps the page from
// answering input on a slow phone. The build preloads both (build.mjs), so no stage waits for
// the network.
await import('react-dom/client');
await import('react-router-dom');
await import('./boot');
