package cleanup

// OnSignals does nothing in a browser: a page has no signals.
func OnSignals() {}
