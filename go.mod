module handy

go 1.26.8

require golang.org/x/text v0.43.0

require github.com/andybalholm/brotli v1.2.8
