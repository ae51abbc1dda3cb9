import type { Screen } from './screens';

const paths: Record<Screen['icon'] | 'logo', string> = {
  // Cube outline: a data model.
  models: 'M12 2 3 7v10l9 5 9-5V7l-9-5Zm0 2.3L18.7 8 12 11.7 5.3 8 12 4.3ZM5 9.7l6 3.3v6.7l-6-3.3V9.7Zm8 10V13l6-3.3v6.7l-6 3.3Z',
  // Dashboard tiles: workbooks.
  workbooks: 'M3 3h8v10H3V3Zm2 2v6h4V5H5Zm8-2h8v6h-8V3Zm2 2v2h4V5h-4Zm-2 6h8v10h-8V11Zm2 2v6h4v-6h-4ZM3 15h8v6H3v-6Zm2 2v2h4v-2H5Z',
  // An arrow into a wall: sent to another service.
  transfers: 'M3 11h10.2l-3.6-3.6L11 6l6 6-6 6-1.4-1.4 3.6-3.6H3v-2Zm16-7h2v16h-2V4Z',
  // Two arrows in a loop: push and pull.
  syncs: 'M4 12a8 8 0 0 1 13.7-5.7L20 4v6h-6l2.3-2.3A6 6 0 0 0 6 12H4Zm16 0a8 8 0 0 1-13.7 5.7L4 20v-6h6l-2.3 2.3A6 6 0 0 0 18 12h2Z',
  // Arrow up out of a tray.
  promotions: 'M12 3 6.5 8.5l1.4 1.4L11 6.8V15h2V6.8l3.1 3.1 1.4-1.4L12 3ZM4 14v5a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-5h-2v5H6v-5H4Z',
  // Shield.
  admin: 'M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3Zm0 2.2 6 2.2V11c0 3.9-2.5 7.6-6 8.9-3.5-1.3-6-5-6-8.9V6.4l6-2.2Z',
  // Stacked servers.
  deployments: 'M4 4h16v6H4V4Zm2 2v2h12V6H6Zm-2 8h16v6H4v-6Zm2 2v2h12v-2H6Zm1-9h2v1H7V7Zm0 10h2v1H7v-1Z',
  // Two linked globes: other services.
  profiles:
    'M7 4a5 5 0 1 1 0 10A5 5 0 0 1 7 4Zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6Zm10 4a5 5 0 1 1 0 10 5 5 0 0 1 0-10Zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6Zm-6.3 2.3 2.6-2.6 1.4 1.4-2.6 2.6-1.4-1.4Z',
  // Hull on a slipway.
  logo: 'M3 13h18l-2.5 5.5a2 2 0 0 1-1.8 1.2H7.3a2 2 0 0 1-1.8-1.2L3 13Zm3-2V6h5v5H6Zm7 0V3h5v8h-5ZM2 21h20v1.5H2V21Z',
};

export function Icon({ name, size = 16 }: { name: keyof typeof paths; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="icon">
      <path d={paths[name]} fill="currentColor" fillRule="evenodd" />
    </svg>
  );
}
