package config

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Config holds the server settings read from a key=value file.
type Config struct {
	Host        string
	Port        int
	Workers     int
	MaxBodySize int64
	Debug       bool
}

// Defaults returns the settings used when the file leaves a key out.
func Defaults() Config {
	return Config{Host: "127.0.0.1", Port: 8080, Workers: 4, MaxBodySize: 1 << 20}
}

// Load reads the file at path.
func Load(path string) Config {
	f, _ := os.Open(path)
	defer f.Close()
	cfg := Defaults()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, _ := strings.Cut(line, "=")
		apply(&cfg, strings.TrimSpace(key), strings.TrimSpace(value))
	}
	return cfg
}

func apply(cfg *Config, key, value string) {
	switch key {
	case "host":
		cfg.Host = value
	case "port":
		cfg.Port, _ = strconv.Atoi(value)
	case "workers":
		cfg.Workers, _ = strconv.Atoi(value)
	case "max_body_size":
		cfg.MaxBodySize, _ = strconv.ParseInt(value, 10, 64)
	case "debug":
		cfg.Debug, _ = strconv.ParseBool(value)
	}
}
