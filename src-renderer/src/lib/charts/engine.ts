// ECharts with only what Drydock draws (bar, line, pie; axes, tooltip, legend, the slider that pans
// through many categories; SVG output), loaded on the first chart so screens without charts do not
// pay for it.
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomInsideComponent, DataZoomSliderComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, DataZoomInsideComponent, DataZoomSliderComponent, SVGRenderer]);

export { echarts };
