import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';

// The app starts in two stages, React's code first, then the app's (boot.tsx, which renders):
// each is compiled and run in a task of its own, not in one long task that keeps the page from
// answering input on a slow phone. The build preloads both (build.mjs), so neither waits for the
// network. (A stage is a whole module's namespace, which the bundler cannot trim: only modules
// used whole, like react-dom/client, make good stages.)
await import('react-dom/client');
await import('./boot');
