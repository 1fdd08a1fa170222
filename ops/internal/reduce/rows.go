package reduce

// extremeRowTail is reduceColumns's Max (Min with min) step, element by
// element: acc[j] takes row[j] when it is larger (smaller) or a NaN,
// unless acc[j] is a NaN already.
func extremeRowTail[A Number](acc, row []A, min bool) {
	row = row[:len(acc)]
	if min {
		for j, v := range row {
			if a := acc[j]; v < a || v != v {
				if a == a {
					acc[j] = v
				}
			}
		}
		return
	}
	for j, v := range row {
		if a := acc[j]; v > a || v != v {
			if a == a {
				acc[j] = v
			}
		}
	}
}

// addTermRowTail is acc[j] += |row[j]| (row[j]*row[j], rounded to A, with
// square), element by element.
func addTermRowTail[A Number](acc, row []A, square bool) {
	row = row[:len(acc)]
	if square {
		for j, v := range row {
			acc[j] += A(v * v)
		}
		return
	}
	for j, v := range row {
		acc[j] += abs(v)
	}
}
