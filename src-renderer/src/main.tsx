import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './styles.css';
// Toasts watch which control the user uses from the start, to keep clear of it (lib/toast.tsx).
import './lib/toast';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
