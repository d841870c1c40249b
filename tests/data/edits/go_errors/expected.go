package config

import (
	"bufio"
	"fmt"
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
func Load(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, fmt.Errorf("open config: %w", err)
	}
	defer f.Close()
	cfg := Defaults()
	scanner := bufio.NewScanner(f)
	lineNo := 0
	for scanner.Scan() {
		lineNo++
		line := strings.TrimSpace(scanner.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			return Config{}, fmt.Errorf("%s:%d: expected key=value", path, lineNo)
		}
		if err := apply(&cfg, strings.TrimSpace(key), strings.TrimSpace(value)); err != nil {
			return Config{}, fmt.Errorf("%s:%d: %w", path, lineNo, err)
		}
	}
	if err := scanner.Err(); err != nil {
		return Config{}, fmt.Errorf("read config: %w", err)
	}
	return cfg, nil
}

func apply(cfg *Config, key, value string) error {
	var err error
	switch key {
	case "host":
		cfg.Host = value
	case "port":
		cfg.Port, err = strconv.Atoi(value)
	case "workers":
		cfg.Workers, err = strconv.Atoi(value)
	case "max_body_size":
		cfg.MaxBodySize, err = strconv.ParseInt(value, 10, 64)
	case "debug":
		cfg.Debug, err = strconv.ParseBool(value)
	default:
		return fmt.Errorf("unknown key %q", key)
	}
	if err != nil {
		return fmt.Errorf("bad value for %s: %w", key, err)
	}
	return nil
}
