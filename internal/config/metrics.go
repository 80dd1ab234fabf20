package config

import (
	"errors"
	"net"
)

// metricsOptions are the settings of the Prometheus metrics, in -help order.
func metricsOptions() []option {
	return []option{
		{"metrics-addr", "HANDY_METRICS_ADDR", "", "TCP address of a listener of its own that serves Prometheus metrics at /metrics (such as localhost:9180); empty: no metrics. Never the public -addr: keep it off the internet (docs/operations.md, Monitoring)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if _, _, err := net.SplitHostPort(v); err != nil {
				return errors.New("must be a host:port such as localhost:9180")
			}
			if v == c.Addr || v == c.HTTPAddr {
				return errors.New("must differ from -addr and -http-addr: metrics are never served on a public port")
			}
			c.MetricsAddr = v
			return nil
		}},
	}
}
