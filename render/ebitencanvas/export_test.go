package ebitencanvas

// Differ is differ, for the app's test in package ebitencanvas_test.
var Differ = differ
