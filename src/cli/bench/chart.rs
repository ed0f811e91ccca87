//! The benchmark's charts (a log y axis, a log or linear x axis): one frame (caption,
//! axes, legend) for every plot, so that each plot only says what it draws.

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::path::Path;

/// A chart being drawn into an SVG file: a log y axis over `f64`, and an x axis that is
/// logarithmic unless said otherwise.
pub type Chart<'a, 'b, X = LogCoord<f64>> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, LogCoord<f64>>>;

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

/// Draws into `path` a log–log chart whose axes span `points` (padded by the frame's
/// factors): the frame, what `draw` adds, and the legend of the series `draw` labelled.
pub fn log_log(
    path: &Path,
    frame: &Frame,
    points: &[(f64, f64)],
    draw: impl FnOnce(&mut Chart) -> Result<(), String>,
) -> Result<(), String> {
    let (xmin, xmax) = span(points, |p| p.0)?;
    framed(path, frame, (xmin * frame.x_pad.0..xmax * frame.x_pad.1).log_scale(), points, draw)
}

/// As `log_log`, with a linear x axis padded by the frame's amounts (for counts such as
/// processes, whose growth the log y axis shows as a line where it is exponential).
pub fn lin_log(
    path: &Path,
    frame: &Frame,
    points: &[(f64, f64)],
    draw: impl FnOnce(&mut Chart<RangedCoordf64>) -> Result<(), String>,
) -> Result<(), String> {
    let (xmin, xmax) = span(points, |p| p.0)?;
    framed(path, frame, RangedCoordf64::from(xmin - frame.x_pad.0..xmax + frame.x_pad.1), points, draw)
}

/// The least and greatest of one coordinate of the points.
fn span(points: &[(f64, f64)], coord: fn(&(f64, f64)) -> f64) -> Result<(f64, f64), String> {
    if points.is_empty() {
        return Err("nothing to plot".into());
    }
    Ok(points.iter().map(coord).fold((f64::MAX, f64::MIN), |a, v| (a.0.min(v), a.1.max(v))))
}

/// The frame over the x axis `x` and a log y axis spanning `points`, then `draw`.
fn framed<X>(
    path: &Path,
    frame: &Frame,
    x: X,
    points: &[(f64, f64)],
    draw: impl FnOnce(&mut Chart<X::CoordDescType>) -> Result<(), String>,
) -> Result<(), String>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let (ymin, ymax) = span(points, |p| p.1)?;
    let root = SVGBackend::new(path, (960, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
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
