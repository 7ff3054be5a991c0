-- Placeholder so that 0004 loads in the faults branch; the lead drops it at merge
-- (the real 0003 comes from another branch).
SELECT 1;
