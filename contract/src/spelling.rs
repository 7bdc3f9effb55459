//! How stores and records spell the contract's enums: one macro, so that each enum's spelling is
//! written once, beside its values.

/// `as_str`, `parse` and `Display` for an enum whose every value is spelled, in stores and
/// records, as serde spells it (a test holds the two spellings together).
macro_rules! spelled {
    ($name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// How stores and records spell each value, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// How stores and records spell it.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// The value spelled `text`, if any.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
