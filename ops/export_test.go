package ops

// Generated is the table of generated functions, for the external tests.
var Generated = generated
