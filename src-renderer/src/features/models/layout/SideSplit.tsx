import type { ReactNode } from 'react';
import { Group, Panel, Separator, usePanelRef } from 'react-resizable-panels';
import { DATA_SIDE_WIDTH, useWorkbenchLayout } from './layout-store';

/**
 * A side pane and the main pane of the Data view (members or vendor targets | query and result), in
 * the same resizable split as the Files view; the side's width is remembered with the other panes.
 */
export function SideSplit({ side, children, className }: { side: ReactNode; children: ReactNode; className?: string }) {
  const width = useWorkbenchLayout((s) => s.dataSideWidth);
  const sidePanel = usePanelRef();
  return (
    <Group
      orientation="horizontal"
      className={`wb-panes ${className ?? ''}`}
      onLayoutChanged={(_, meta) => {
        if (meta.isUserInteraction && sidePanel.current) useWorkbenchLayout.getState().update({ dataSideWidth: Math.round(sidePanel.current.getSize().inPixels) });
      }}
    >
      <Panel id="data-side" panelRef={sidePanel} className="wb-pane" defaultSize={width} minSize={DATA_SIDE_WIDTH.min} maxSize={DATA_SIDE_WIDTH.max} groupResizeBehavior="preserve-pixel-size">
        {side}
      </Panel>
      <Separator className="wb-separator wb-separator-v" aria-label="Resize the side pane" />
      <Panel id="data-main" className="wb-pane" minSize={320}>
        {children}
      </Panel>
    </Group>
  );
}
