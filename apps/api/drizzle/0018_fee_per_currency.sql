-- Fees per currency (issue 22): every stored admissions setting gains `application_fees`, the list of
-- currencies the institution charges in with the amount in minor units and the ways to pay. A setting from
-- before keeps its one fee, payable by card; a fee of 0 becomes no option at all (no fee). Minor units
-- follow ISO 4217's decimals as the platform's Intl data has them (0 for RWF, UGX, XAF, XOF …; 3 for BHD …).
UPDATE "partner_settings"
SET "admissions" = "admissions" || jsonb_build_object(
  'application_fees',
  CASE
    WHEN COALESCE(("admissions"->>'application_fee')::numeric, 0) <= 0 THEN '[]'::jsonb
    ELSE jsonb_build_array(jsonb_build_object(
      'currency', COALESCE("admissions"->>'application_fee_currency', 'USD'),
      'amount', round(("admissions"->>'application_fee')::numeric * CASE
        WHEN COALESCE("admissions"->>'application_fee_currency', 'USD') IN ('AFN', 'ALL', 'BIF', 'CLP', 'COP', 'DJF', 'GNF', 'HUF', 'IDR', 'IQD', 'IRR', 'ISK', 'JPY', 'KMF', 'KPW', 'KRW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'PYG', 'RWF', 'SLL', 'SOS', 'SYP', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF', 'YER') THEN 1
        WHEN COALESCE("admissions"->>'application_fee_currency', 'USD') IN ('BHD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 1000
        ELSE 100
      END)::bigint,
      'channels', jsonb_build_array('card')
    ))
  END
)
WHERE NOT ("admissions" ? 'application_fees')
  AND jsonb_typeof("admissions"->'application_fee') = 'number';
