//! The benchmark's log–log charts: one frame (caption, axes, legend) for every plot, so
//! that each plot only says what it draws.

use plotters::prelude::*;
use std::path::Path;

/// A chart being drawn: log–log axes over `f64`, into an SVG file.
pub type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// A drawing error, as text.
pub fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

/// The frame of a chart.
pub struct Frame<'t> {
    pub caption: &'t str,
    pub x_desc: &'t str,
    pub y_desc: &'t str,
    /// How far the x axis reaches past the points, below and above (factors).
    pub x_pad: (f64, f64),
    pub x_label: fn(&f64) -> String,
}

/// Draws into `path` a chart whose axes span `points` (padded): the frame, what `draw`
/// adds, and the legend of the series `draw` labelled.
pub fn log_log(
    path: &Path,
    frame: &Frame,
    points: &[(f64, f64)],
    draw: impl FnOnce(&mut Chart) -> Result<(), String>,
) -> Result<(), String> {
    if points.is_empty() {
        return Err("nothing to plot".into());
    }
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let (xmin, xmax) = points.iter().fold((f64::MAX, 0.0f64), |a, p| (a.0.min(p.0), a.1.max(p.0)));
    let (ymin, ymax) = points.iter().fold((f64::MAX, 0.0f64), |a, p| (a.0.min(p.1), a.1.max(p.1)));
    let root = SVGBackend::new(path, (960, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let x = (xmin * frame.x_pad.0..xmax * frame.x_pad.1).log_scale();
    let mut chart = ChartBuilder::on(&root)
        .caption(frame.caption, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(x, (ymin * 0.5..ymax * 2.0).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(frame.x_desc)
        .y_desc(frame.y_desc)
        .x_label_formatter(&frame.x_label)
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .draw()
        .map_err(err)?;
    draw(&mut chart)?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}
