//! Crate docs.
use std::collections::HashMap;
use std::fmt::{self, Display};

/// A point in space.
#[derive(Debug, Clone)]
pub struct Point {
    pub x: i32,
    y: i32,
}

/// Shapes.
pub enum Shape {
    Circle(f64),
    Square(f64),
}

pub trait Area {
    /// The area.
    fn area(&self) -> f64;
}

impl Point {
    /// Makes a point.
    pub fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    fn norm(&self) -> i32 {
        self.x * self.x + self.y * self.y
    }
}

impl Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

pub type Map = HashMap<String, Point>;

mod inner {
    pub fn helper() -> u8 {
        1
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

const LIMITS: [u32; 4] = [
    1,
    2,
    3,
    4,
];

fn main() {
    let p = Point::new(1, 2);
    println!("{}", p);
}
