module handy

go 1.26.8

require (
	github.com/andybalholm/brotli v1.2.8 // indirect
	golang.org/x/text v0.43.0 // indirect
)
