//! SVG to PNG through resvg, with the system's fonts for the text.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

/// Why a picture could not be made a PNG.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PngError {
    /// The SVG cannot be parsed.
    #[error("the SVG cannot be read: {0}")]
    Svg(usvg::Error),
    /// The scale is not positive, or the picture would be larger than
    /// 16384 pixels on a side.
    #[error("the picture cannot be {0} times its size")]
    Scale(f32),
    /// PNG encoding failed.
    #[error("encoding the PNG failed: {0}")]
    Encode(String),
}

// The cause is part of the message, so it is not also a `source`: an
// error chain prints every cause once.
impl From<usvg::Error> for PngError {
    fn from(error: usvg::Error) -> Self {
        PngError::Svg(error)
    }
}

/// The largest side of a PNG, in pixels.
const MAX_SIDE: f32 = 16384.0;

/// The system's fonts, loaded once per process (it reads every font file).
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    Arc::clone(FONTS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_system_fonts();
        Arc::new(fonts)
    }))
}

/// Whether the system has fonts for the pictures' text. Without any, a PNG
/// shows the boards and marks but no text.
pub fn fonts_available() -> bool {
    !fonts().is_empty()
}

/// The SVG document `svg` as a PNG, `scale` times its size (1.0: one pixel
/// per SVG unit).
///
/// # Errors
///
/// [`PngError`]: an SVG that cannot be parsed, a scale that is not
/// positive or makes the picture too large, or a failed encoding.
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree.size();
    let (width, height) = (size.width() * scale, size.height() * scale);
    if !(scale > 0.0 && width <= MAX_SIDE && height <= MAX_SIDE) {
        return Err(PngError::Scale(scale));
    }
    let mut pixmap = tiny_skia::Pixmap::new(width.ceil() as u32, height.ceil() as u32)
        .ok_or(PngError::Scale(scale))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|error| PngError::Encode(error.to_string()))
}
